import { Controller, HttpCode, Inject, InternalServerErrorException, Post, Req, UnauthorizedException, type RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import type { Credentials } from '@x/auth';
import { verifyCallback } from '@x/webhooks';
import { ReceivedCallbacks } from './received';
import { CALLBACK_CREDENTIALS } from './tokens';

/** Verified with @x/webhooks over req.rawBody, which NestFactory.create(..., { rawBody: true }) keeps. */
@Controller('callbacks')
export class CallbacksController {
  constructor(
    private readonly received: ReceivedCallbacks,
    @Inject(CALLBACK_CREDENTIALS) private readonly credentials: Credentials,
  ) {}

  @Post()
  @HttpCode(200)
  async receive(@Req() req: RawBodyRequest<Request>): Promise<{ ok: true }> {
    const result = await verifyCallback({ body: req.rawBody ?? '', headers: req.headers }, this.credentials);
    if (!result.ok) throw new UnauthorizedException(result.reason);
    this.received.payloads.push({ route: 'callbacks', payload: result.payload });
    return { ok: true };
  }
}

/** Verified by @x/express's middleware (AppModule applies it to this route); the handler reads req.callback. */
@Controller('express-callbacks')
export class ExpressCallbacksController {
  constructor(private readonly received: ReceivedCallbacks) {}

  @Post()
  @HttpCode(200)
  receive(@Req() req: Request): { ok: true } {
    if (!req.callback) throw new InternalServerErrorException('verifyCallbacks did not run on this route');
    this.received.payloads.push({ route: 'express-callbacks', payload: req.callback });
    return { ok: true };
  }
}
