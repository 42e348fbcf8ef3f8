import { Injectable } from '@nestjs/common';
import type { CallbackPayload } from '@x/webhooks';

/** What the handlers were given, in order (the app would save it). */
@Injectable()
export class ReceivedCallbacks {
  readonly payloads: { route: string; payload: CallbackPayload }[] = [];
}
