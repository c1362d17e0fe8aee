import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sizeBytes, str } from '../../../src/vnfd/model/values.ts';

describe('sizeBytes', () => {
  it('converts decimal and binary units like Tacker, truncating fractions', () => {
    assert.equal(sizeBytes('1 GB'), 1_000_000_000);
    assert.equal(sizeBytes('512 MB'), 512_000_000);
    assert.equal(sizeBytes('1.75 GiB'), 1879048192);
    assert.equal(sizeBytes('8192.5 MiB'), 8590458880);
    assert.equal(sizeBytes('1.5 B'), 1);
    assert.equal(sizeBytes('2 kB'), 2000);
    assert.equal(sizeBytes('2 KiB'), 2048);
    assert.equal(sizeBytes('3 gib'), 3 * 2 ** 30);
    assert.equal(sizeBytes('1 TB'), 1e12);
  });

  it('takes a number as bytes already', () => {
    assert.equal(sizeBytes(1879048192), 1879048192);
    assert.equal(sizeBytes(10.9), 10);
  });

  it('is undefined for what is not a size', () => {
    assert.equal(sizeBytes('1 parsec'), undefined);
    assert.equal(sizeBytes('big'), undefined);
    assert.equal(sizeBytes(undefined), undefined);
    assert.equal(sizeBytes({}), undefined);
  });
});

describe('str', () => {
  it('keeps YAML numbers as version strings', () => {
    assert.equal(str(1.5), '1.5');
    assert.equal(str('1.0'), '1.0');
    assert.equal(str({}), undefined);
  });
});
