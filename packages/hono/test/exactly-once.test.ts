import { exactlyOnceScenarios } from '../../../testing/exactly-once.js';
import { honoReceiver, memoryStore, tools } from './receivers.js';

exactlyOnceScenarios('hono (@hono/node-server), memory store', honoReceiver, memoryStore, tools);
