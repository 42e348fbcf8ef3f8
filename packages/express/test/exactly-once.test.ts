import { exactlyOnceScenarios } from '../../../testing/exactly-once.js';
import { frameworks, memoryStore, receiverFor, tools } from './receivers.js';

for (const [name, express, asyncHandlers] of frameworks) exactlyOnceScenarios(`${name}, memory store`, receiverFor(express, asyncHandlers), memoryStore, tools);
