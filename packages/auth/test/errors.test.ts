// The error base (XError) and the failure table: one place for each, read by every package.
import fc from 'fast-check';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { AuthError, VERIFY_FAILURES, VERIFY_FAILURE_ADVICE, VERIFY_FAILURE_CODES, VERIFY_FAILURE_MESSAGES, VERIFY_FAILURE_TEXTS, XError, createSigner, verifyFailureOf, verifyRequest, type VerifyFailure } from '../src/index.js';

type AuthModule = typeof import('../src/index.js');
const dist = (name: string) => new URL(`../dist/${name}`, import.meta.url);

describe('XError, the base of every error the SDK throws', () => {
  it('misuse of the signer throws an AuthError that is an XError with a stable code', () => {
    let thrown: unknown;
    try {
      createSigner({ customerId: 'c', apiKey: 'not base64!' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AuthError);
    expect(thrown).toBeInstanceOf(XError);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as AuthError).code).toBe('invalid_api_key');
    expect((thrown as AuthError).name).toBe('AuthError');
  });

  it('instanceof holds across the ESM and CommonJS builds, and a class never claims its base or siblings', async () => {
    expect(existsSync(dist('index.cjs')), 'build @x/auth first (pnpm turbo run build)').toBe(true);
    const esm = (await import(dist('index.js').href)) as AuthModule;
    const cjs = createRequire(import.meta.url)(dist('index.cjs').pathname) as AuthModule;
    expect(cjs.AuthError).not.toBe(esm.AuthError);
    const fromCjs = new cjs.AuthError('invalid_header', 'x');
    expect(fromCjs).toBeInstanceOf(esm.AuthError);
    expect(fromCjs).toBeInstanceOf(esm.XError);
    expect(fromCjs).toBeInstanceOf(AuthError);
    expect(new esm.AuthError('invalid_header', 'x')).toBeInstanceOf(cjs.AuthError);
    // The base is not a subclass.
    expect(new cjs.XError('x', 'y')).not.toBeInstanceOf(esm.AuthError);
    expect(new esm.XError('x', 'y')).not.toBeInstanceOf(cjs.AuthError);
    expect(new XError('x', 'y')).not.toBeInstanceOf(AuthError);
  });

  it('a subclass without a brand of its own is matched by the prototype chain only', async () => {
    const cjs = createRequire(import.meta.url)(dist('index.cjs').pathname) as AuthModule;
    class MyError extends XError {}
    class Other extends XError {}
    expect(new MyError('mine', 'x')).toBeInstanceOf(MyError);
    expect(new MyError('mine', 'x')).toBeInstanceOf(XError);
    expect(new MyError('mine', 'x')).toBeInstanceOf(cjs.XError);
    expect(new Other('other', 'x')).not.toBeInstanceOf(MyError);
    expect(new XError('mine', 'x')).not.toBeInstanceOf(MyError);
    expect(new cjs.XError('mine', 'x')).not.toBeInstanceOf(MyError);
  });

  it('anything else is not an XError, and checking never throws', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(value instanceof XError).toBe(false);
        expect(value instanceof AuthError).toBe(false);
      }),
    );
    for (const value of [Object.create(null), new Error('x'), { code: 'invalid_header', message: 'x' }, Object.assign(Object.create(Error.prototype), { code: 'x' })]) {
      expect(value instanceof XError).toBe(false);
    }
  });
});

describe('the failure table', () => {
  const reasons = Object.keys(VERIFY_FAILURES) as VerifyFailure[];

  it('a code the service answers reads back as the reason it names; borrowed codes name another reason that owns them', () => {
    for (const reason of reasons) {
      const facts = VERIFY_FAILURES[reason];
      for (const family of ['positive', 'negative'] as const) {
        const back = verifyFailureOf(facts[family]);
        expect(back, `${reason} ${family}`).toBeDefined();
        if (facts.borrows?.includes(family)) {
          expect(back).not.toBe(reason);
          expect(VERIFY_FAILURES[back!][family]).toBe(facts[family]);
          expect(VERIFY_FAILURES[back!].borrows ?? []).not.toContain(family);
        } else expect(back, `${reason} ${family}`).toBe(reason);
      }
    }
  });

  it('the codes the client used to decode by hand decode the same', () => {
    const expected: Record<number, VerifyFailure> = {
      10002: 'nonce_reused', [-30012]: 'nonce_reused',
      10003: 'invalid_nonce', [-30011]: 'invalid_nonce',
      10004: 'clock_skew', [-30010]: 'clock_skew',
      10005: 'invalid_date', [-30009]: 'invalid_date',
      10006: 'unsupported_auth_method', [-30008]: 'unsupported_auth_method',
      10007: 'missing_date', [-30007]: 'missing_date',
      10008: 'signature_mismatch', [-30006]: 'signature_mismatch',
      10013: 'unknown_customer', 10015: 'unknown_customer', [-30000]: 'unknown_customer',
      [-30004]: 'missing_authorization', [-30005]: 'malformed_authorization', [-30015]: 'invalid_api_key',
    };
    for (const [code, reason] of Object.entries(expected)) expect(verifyFailureOf(Number(code)), code).toBe(reason);
    for (const other of [0, 200, 10019, 11000, -40006, -90001, 3400, Number.NaN]) expect(verifyFailureOf(other)).toBeUndefined();
  });

  it('every entry says what to do, and joins the four tables', () => {
    for (const reason of reasons) {
      const facts = VERIFY_FAILURES[reason];
      expect(facts.status).toBe(401);
      expect(facts.message).toMatch(/\.$/);
      expect(facts.advice.length).toBeGreaterThan(10);
      expect(facts).toEqual({ status: 401, message: VERIFY_FAILURE_MESSAGES[reason], advice: VERIFY_FAILURE_ADVICE[reason], text: VERIFY_FAILURE_TEXTS[reason], ...VERIFY_FAILURE_CODES[reason] });
    }
  });

  it("verifyRequest answers with the table's status and message", async () => {
    const credentials = () => undefined;
    const cases: Array<[Record<string, string>, VerifyFailure]> = [
      [{}, 'missing_authorization'],
      [{ authorization: 'Bearer x' }, 'malformed_authorization'],
      [{ authorization: 'TSA nobody:AAAA' }, 'unknown_customer'],
      [{ authorization: `Basic ${btoa('a:b')}` }, 'basic_not_allowed'],
    ];
    for (const [headers, reason] of cases) {
      const result = await verifyRequest({ method: 'GET', url: '/v1/x', headers }, { credentials });
      expect(result).toMatchObject({ ok: false, reason, status: VERIFY_FAILURES[reason].status, message: VERIFY_FAILURES[reason].message });
    }
  });
});
