// The real servers most error tests talk to: the emulator, and a recording server for scripted
// answers. Started before the tests of a file, closed after them; the recorder reset before each.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

export function useServers(): { emulator: RunningEmulator; recorder: RecordingServer } {
  const servers = {} as { emulator: RunningEmulator; recorder: RecordingServer };
  beforeAll(async () => {
    servers.emulator = await startEmulator({ deliveryDelayMs: 10 });
    servers.recorder = await startRecordingServer([DEFAULT_CUSTOMER]);
  });
  afterAll(async () => {
    await servers.emulator.close();
    await servers.recorder.close();
  });
  beforeEach(() => servers.recorder.reset());
  return servers;
}
