import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { type ReadCsarOptions, readCsar } from '../../../src/vnfd/csar/read-csar.ts';
import type { Diagnostic } from '../../../src/vnfd/diagnostics.ts';
import {
  type FixtureFiles,
  IMAGE,
  IMAGE_PATH,
  openFixture,
  SCRIPT,
  SCRIPT_PATH,
  validPackage,
} from '../../support/csar-fixtures.ts';
import { createTestPki, type Signer } from '../../support/pki.ts';

const pki = createTestPki();
after(() => pki.cleanup());
const trusted: ReadCsarOptions = { trustAnchors: [pki.caPem] };

/** The fixture with its manifest signed (CMS block appended, SOL004 security option 1). */
function signedPackage(
  signer: Signer,
  options: { attached?: boolean; withoutCertificates?: boolean } = {},
): FixtureFiles {
  const files = validPackage();
  files['vnf.mf'] = `${files['vnf.mf']}${pki.sign(files['vnf.mf'], signer, options)}`;
  return files;
}

async function read(files: FixtureFiles, options: ReadCsarOptions) {
  const fixture = await openFixture(files);
  try {
    return await readCsar(fixture.files, options);
  } finally {
    await fixture.cleanup();
  }
}

const errorsOf = (list: Diagnostic[]) => list.filter((d) => d.severity === 'error');

test('a manifest signed by a certificate of a trusted CA verifies (detached CMS)', async () => {
  const info = await read(signedPackage(pki.signer), trusted);
  assert.deepEqual(info.diagnostics, []);
  assert.equal(info.manifest?.signed, true);
  assert.deepEqual(info.signature, {
    policy: 'verify-if-present',
    manifestSigned: true,
    valid: true,
    signer: 'CN=Bosun Test Signer',
    certificateFile: undefined,
  });
  // The CMS block is not part of the manifest's artifacts or metadata.
  assert.equal(info.artifacts.length, 2);
});

test('an attached CMS signature of the manifest verifies', async () => {
  const info = await read(signedPackage(pki.signer, { attached: true }), {
    ...trusted,
    signaturePolicy: 'required',
  });
  assert.deepEqual(info.diagnostics, []);
  assert.equal(info.signature.valid, true);
});

test('the signing certificate may come from ETSI-Entry-Certificate instead of the CMS', async () => {
  const files = signedPackage(pki.signer, { withoutCertificates: true });
  files['TOSCA-Metadata/TOSCA.meta'] = `${files['TOSCA-Metadata/TOSCA.meta']}`.replace(
    'ETSI-Entry-Tests',
    'ETSI-Entry-Certificate: Certificates/vnf.cert\nETSI-Entry-Tests',
  );
  files['Certificates/vnf.cert'] = pki.signer.certPem;
  const info = await read(files, trusted);
  assert.deepEqual(info.diagnostics, []);
  assert.equal(info.signature.certificateFile, 'Certificates/vnf.cert');
  assert.equal(info.signature.signer, 'CN=Bosun Test Signer');
  const without = { ...files };
  delete without['Certificates/vnf.cert'];
  without['TOSCA-Metadata/TOSCA.meta'] = `${files['TOSCA-Metadata/TOSCA.meta']}`.replace(
    'ETSI-Entry-Certificate: Certificates/vnf.cert\n',
    '',
  );
  const missing = await read(without, trusted);
  assert.match(
    errorsOf(missing.diagnostics)[0].message,
    /signing certificate is neither in the signature nor/,
  );
});

test('a tampered manifest: "signature does not match the manifest"', async () => {
  const files = signedPackage(pki.signer);
  files['vnf.mf'] = `${files['vnf.mf']}`.replace('Fixture VNF', 'Fixture VNX');
  const info = await read(files, trusted);
  const errors = errorsOf(info.diagnostics);
  assert.deepEqual(
    errors.map((d) => [d.code, d.file]),
    [['CSAR_SIGNATURE_INVALID', 'vnf.mf']],
  );
  assert.match(errors[0].message, /signature does not match the manifest/);
  assert.equal(info.signature.valid, false);
});

test('a certificate from an untrusted CA: "is not issued by a trusted authority"', async () => {
  const info = await read(signedPackage(pki.untrustedSigner), trusted);
  const errors = errorsOf(info.diagnostics);
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /certificate "CN=Rogue Signer" is not issued by a trusted authority/);
  assert.equal(info.signature.valid, false);
});

test('without configured trust anchors no signature can be trusted', async () => {
  const info = await read(signedPackage(pki.signer), {});
  assert.match(errorsOf(info.diagnostics)[0].message, /not issued by a trusted authority \(no trust anchors/);
});

test('an expired signing certificate: "expired on <date>"', async () => {
  const info = await read(signedPackage(pki.expiredSigner), trusted);
  const errors = errorsOf(info.diagnostics);
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /certificate "CN=Bosun Expired Signer" expired on \d{4}-\d\d-\d\dT/);
});

test('policy required + unsigned package is an error; verify-if-present accepts it', async () => {
  const required = await read(validPackage(), { ...trusted, signaturePolicy: 'required' });
  assert.deepEqual(
    errorsOf(required.diagnostics).map((d) => d.code),
    ['CSAR_SIGNATURE_MISSING'],
  );
  assert.equal(required.signature.manifestSigned, false);
  const lenient = await read(validPackage(), trusted);
  assert.deepEqual(lenient.diagnostics, []);
});

test('policy off ignores even a broken signature', async () => {
  const files = signedPackage(pki.untrustedSigner);
  const info = await read(files, { signaturePolicy: 'off' });
  assert.deepEqual(info.diagnostics, []);
  assert.deepEqual(info.signature, { policy: 'off', manifestSigned: true, certificateFile: undefined });
});

test('per-artifact signatures (security option 2) are verified; a tampered artifact fails', async () => {
  const files = validPackage({ layout: 'root-yaml' });
  files['Scripts/install.sh.cms'] = pki.sign(SCRIPT, pki.signer);
  files['vnf.mf'] = `${files['vnf.mf']}`.replace(
    `Source: ${SCRIPT_PATH}\nAlgorithm: SHA-256\n`,
    `Source: ${SCRIPT_PATH}\nSignature: Scripts/install.sh.cms\nAlgorithm: SHA-256\n`,
  );
  const ok = await read(files, trusted);
  assert.deepEqual(ok.diagnostics, []);
  assert.equal(ok.artifacts[0].signatureFile, 'Scripts/install.sh.cms');
  assert.equal(ok.signature.valid, true);
  files['Scripts/install.sh.cms'] = pki.sign('something else', pki.signer);
  const bad = await read(files, trusted);
  const errors = errorsOf(bad.diagnostics);
  assert.deepEqual(
    errors.map((d) => d.code),
    ['CSAR_ARTIFACT_SIGNATURE_INVALID'],
  );
  assert.match(errors[0].message, /signature does not match artifact Scripts\/install\.sh/);
});

test('root YAML layout: the certificate is the root .cert of the same name', async () => {
  const files = validPackage({ layout: 'root-yaml' });
  files['vnf.mf'] =
    `${files['vnf.mf']}${pki.sign(files['vnf.mf'], pki.signer, { withoutCertificates: true })}`;
  files['vnf.cert'] = pki.signer.certPem;
  const info = await read(files, trusted);
  assert.deepEqual(info.diagnostics, []);
  assert.equal(info.signature.certificateFile, 'vnf.cert');
  assert.equal(info.signature.valid, true);
});

test('an attached CMS whose embedded content is not the manifest does not match', async () => {
  const files = validPackage();
  files['vnf.mf'] = `${files['vnf.mf']}${pki.sign('another manifest\n', pki.signer, { attached: true })}`;
  const info = await read(files, trusted);
  assert.match(errorsOf(info.diagnostics)[0].message, /signature does not match the manifest/);
});

test('signatures without signed attributes (openssl -noattr) are checked over the raw content', async () => {
  const files = validPackage({ layout: 'root-yaml' });
  files['Scripts/install.sh.cms'] = pki.sign(SCRIPT, pki.signer, { withoutAttributes: true });
  files['vnf.mf'] = `${files['vnf.mf']}`.replace(
    `Source: ${SCRIPT_PATH}\nAlgorithm: SHA-256\n`,
    `Source: ${SCRIPT_PATH}\nSignature: Scripts/install.sh.cms\nAlgorithm: SHA-256\n`,
  );
  files['vnf.mf'] = `${files['vnf.mf']}${pki.sign(files['vnf.mf'], pki.signer, { withoutAttributes: true })}`;
  const ok = await read(files, trusted);
  assert.deepEqual(ok.diagnostics, []);
  files[SCRIPT_PATH] = 'changed\n';
  const bad = await read(files, { ...trusted, signaturePolicy: 'required' });
  const codes = errorsOf(bad.diagnostics).map((d) => d.code);
  assert.deepEqual(codes.sort(), ['CSAR_ARTIFACT_SIGNATURE_INVALID', 'CSAR_HASH_MISMATCH']);
});

test('a signed image is verified from its streamed digest', async () => {
  const files = validPackage({ layout: 'root-yaml' });
  files['Files/images/disk.qcow2.cms'] = pki.sign(IMAGE, pki.signer);
  files['Files/images/disk.qcow2.cert'] = pki.signer.certPem;
  files['vnf.mf'] = `${files['vnf.mf']}`.replace(
    `Source: ${IMAGE_PATH}\n`,
    `Source: ${IMAGE_PATH}\nSignature: Files/images/disk.qcow2.cms\nCertificate: Files/images/disk.qcow2.cert\n`,
  );
  const ok = await read(files, trusted);
  assert.deepEqual(ok.diagnostics, []);
  assert.equal(ok.signature.valid, true);
  files[IMAGE_PATH] = Buffer.alloc(IMAGE.length, 1);
  const bad = await read(files, trusted);
  assert.ok(
    errorsOf(bad.diagnostics).some((d) =>
      /signature does not match artifact Files\/images\/disk\.qcow2/.test(d.message),
    ),
  );
});
