import { describe, expect, it } from 'vitest';
import { idTime, newId } from '../../src/sandbox';

describe('ids', () => {
  it('are a prefix and 27 base62 characters, with or without the underscore in the prefix', () => {
    expect(newId('tn')).toMatch(/^tn_[0-9A-Za-z]{27}$/);
    expect(newId('edghtsrt_')).toMatch(/^edghtsrt_[0-9A-Za-z]{27}$/);
    expect(() => newId('Tn!')).toThrow(TypeError);
  });

  it('encode their creation second', () => {
    const date = new Date('2025-09-04T10:11:22Z');
    expect(idTime(newId('tn', date))?.toISOString()).toBe('2025-09-04T10:11:22.000Z');
    expect(idTime('not-an-id')).toBeUndefined();
  });

  it('decode like the real API ids (KSUID epoch)', () => {
    // The contract's sample tunnel id started at 2025-09-04T10:11:22Z.
    expect(idTime('tn_32ELFeTyzStvllGupngXcSO5GUy')?.toISOString()).toBe('2025-09-04T10:11:22.000Z');
  });

  it('sort as strings in time order, zero-padded for early times', () => {
    const times = [
      '2014-05-13T16:53:21Z',
      '2019-01-01T00:00:00Z',
      '2025-01-01T00:00:00Z',
      '2031-06-30T12:00:00Z',
    ];
    const ids = times.map((time) => newId('tn', new Date(time)));
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]?.startsWith('tn_0')).toBe(true);
  });

  it('minted within one second still sort in creation order', () => {
    const date = new Date('2025-09-04T10:11:22Z');
    const ids = Array.from({ length: 500 }, () => newId('op', date));
    expect(new Set(ids).size).toBe(500);
    expect([...ids].sort()).toEqual(ids);
  });

  it('reject dates outside the 32-bit second range', () => {
    expect(() => newId('tn', new Date('2000-01-01T00:00:00Z'))).toThrow(RangeError);
  });
});
