import { describe, expect, it } from 'vitest';
import { VERIFY_FAILURES, VERIFY_FAILURE_REASONS } from '../src/failures-entry.js';

describe('the failure table', () => {
  it('has one row per reason, in the order of VERIFY_FAILURE_REASONS', () => {
    expect(Object.keys(VERIFY_FAILURES)).toEqual([...VERIFY_FAILURE_REASONS]);
  });
});
