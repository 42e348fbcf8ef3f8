import { Inject, Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import type { Credentials } from '@x/auth';
import { verifyCallbacks } from '@x/express';
import { CallbacksController, ExpressCallbacksController } from './callbacks.controller';
import { ReceivedCallbacks } from './received';
import { CALLBACK_CREDENTIALS } from './tokens';

@Module({})
export class AppModule implements NestModule {
  constructor(@Inject(CALLBACK_CREDENTIALS) private readonly credentials: Credentials) {}

  static register(credentials: Credentials): DynamicModule {
    return {
      module: AppModule,
      controllers: [CallbacksController, ExpressCallbacksController],
      providers: [ReceivedCallbacks, { provide: CALLBACK_CREDENTIALS, useValue: credentials }],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(verifyCallbacks(this.credentials)).forRoutes('express-callbacks');
  }
}
