/**
 * Phone verification: an OTP flow with resend, voice fallback and attempt limits (`createOtp`),
 * a guard against SMS pumping and abuse (`createGuard`), SMS templates with WebOTP and Android
 * hashes (`otpTemplate`), and the in-memory store. Redis: `@x/otp/redis`; countries: `@x/otp/phone`;
 * the Verify API as the sender: `@x/otp/verify-api`.
 *
 * @packageDocumentation
 * @module @x/otp
 */
export { createGuard, DEFAULT_LIMITS } from './guard.js';
export type { Guard, GuardDecision, GuardEvent, GuardOptions, GuardRequest, LimitScope, PumpingOptions, PumpingScopeOptions, Refusal, RefusalReason } from './guard.js';
export { createOtp } from './flow.js';
export type { Channel, CheckResult, FlowRefusal, FlowRefusalReason, Otp, OtpEvent, OtpMessage, OtpOptions, OtpSender, Sent, SendResult, StartRequest, StartResult } from './flow.js';
export { createMemoryStore } from './memory.js';
export type { MemoryStoreOptions } from './memory.js';
export { riskBlock } from './risk.js';
export type { RiskAnswer, RiskBlock, RiskPolicy } from './risk.js';
export { otpTemplate, OTP_TEXTS } from './template.js';
export type { OtpTemplateOptions } from './template.js';
export type { AttemptOutcome, CompletionPlan, FlowRecord, GuardPlan, GuardVerdict, NewFlow, OtpStore, PumpingPlan, SendClaim, SendPlan, WindowLimit } from './store.js';
