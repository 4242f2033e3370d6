// The package's fileUri spells every path of the shared table
// (testdata/uri/fileuri.json, written by the core's TestFileURIAgreement)
// exactly as the core does, so URIs from JS, Go and the servers compare
// equal for one file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as lspseam from '../dist/node.js';

const table = JSON.parse(readFileSync(fileURLToPath(new URL('../../../testdata/uri/fileuri.json', import.meta.url)), 'utf8'));

test('fileUri agrees with the core on every path of the shared table', () => {
  assert.ok(table.length >= 10, 'the shared table has its cases');
  for (const c of table) {
    assert.equal(lspseam.fileUri(c.path), c.uri, `fileUri(${JSON.stringify(c.path)})`);
  }
});

test('fileUri leaves a file: URI as it is and keeps NFC and NFD apart', () => {
  assert.equal(lspseam.fileUri('file:///x%20y'), 'file:///x%20y');
  assert.notEqual(lspseam.fileUri('/a/caf\u00e9'), lspseam.fileUri('/a/cafe\u0301'));
});
