import { exactlyOnceScenarios } from '../../../testing/exactly-once.js';
import { expressReceiver, frameworks, memoryStore, tools } from './receivers.js';

for (const [name, express, asyncHandlers] of frameworks) exactlyOnceScenarios(`${name}, memory store`, expressReceiver(express, asyncHandlers), memoryStore, tools);
