import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockedHostname, blockedReason } from '../../src/net/address-policy.ts';

// Each blocked range's edges, and the allowed addresses just outside them.
const BLOCKED: [string, RegExp][] = [
  ['0.0.0.0', /unspecified/],
  ['0.255.255.255', /unspecified/],
  ['10.0.0.0', /private \(10/],
  ['10.255.255.255', /private/],
  ['100.64.0.0', /carrier-grade NAT/],
  ['100.127.255.255', /carrier-grade NAT/],
  ['127.0.0.1', /loopback/],
  ['127.255.255.254', /loopback/],
  ['169.254.169.254', /link-local .*metadata/],
  ['169.254.0.0', /link-local/],
  ['172.16.0.0', /private \(172\.16/],
  ['172.31.255.255', /private/],
  ['192.0.0.8', /IETF/],
  ['192.0.2.1', /documentation/],
  ['192.168.0.1', /private \(192\.168/],
  ['198.18.0.0', /benchmarking/],
  ['198.19.255.255', /benchmarking/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.255', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.255', /broadcast|reserved/],
  ['::', /unspecified/],
  ['::1', /loopback/],
  ['fe80::1', /link-local/],
  ['febf:ffff::1', /link-local/],
  ['fc00::1', /unique-local/],
  ['fdff:ffff::1', /unique-local/],
  ['ff02::1', /multicast/],
  ['2001:db8::1', /reserved or documentation/],
  ['2001:2::1', /benchmarking/],
  ['::ffff:127.0.0.1', /carries 127\.0\.0\.1 \(IPv4-mapped/],
  ['::ffff:10.0.0.1', /carries 10\.0\.0\.1/],
  ['::ffff:169.254.169.254', /metadata/],
  ['::127.0.0.1', /carries 127\.0\.0\.1/],
  ['64:ff9b::7f00:1', /carries 127\.0\.0\.1 \(NAT64/],
  ['64:ff9b::a9fe:a9fe', /carries 169\.254\.169\.254/],
  ['64:ff9b:1::7f00:1', /carries 127\.0\.0\.1/],
  ['64:ff9b:1:7f00:0:100::', /carries .* \(NAT64/],
  ['64:ff9b:1::7f00:1:0:0', /carries .* \(NAT64/],
  ['2002:7f00:1::1', /carries 127\.0\.0\.1 \(6to4/],
  ['2002:c0a8:101::1', /carries 192\.168\.1\.1/],
  ['2001:0:7f00:1::1', /carries 127\.0\.0\.1 \(Teredo server/],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', /carries 127\.0\.0\.1 \(Teredo client/],
  ['2607:f8b0::5efe:7f00:1', /carries 127\.0\.0\.1 \(ISATAP/],
  ['2607:f8b0::200:5efe:a00:1', /carries 10\.0\.0\.1 \(ISATAP/],
];

const ALLOWED = [
  '1.1.1.1',
  '8.8.8.8',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001::1',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('fetch address policy', () => {
  for (const [ip, reason] of BLOCKED) {
    it(`blocks ${ip}`, () => {
      const r = blockedReason(ip);
      assert.ok(r, `${ip} must be blocked`);
      assert.match(r, reason);
    });
  }

  it('allows public addresses just outside every blocked range', () => {
    for (const ip of ALLOWED) assert.equal(blockedReason(ip), undefined, ip);
  });

  it('treats localhost names as this machine', () => {
    for (const h of ['localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'ip6-localhost']) assert.ok(blockedHostname(h), h);
    assert.equal(blockedHostname('localhost.example.com'), undefined);
    assert.equal(blockedHostname('example.com'), undefined);
  });
});
