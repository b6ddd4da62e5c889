import { ConfigValidationError } from '@lp/platform/config';
import { parseAllowedNetworks } from './allowed-networks';
import { DeliveryAddressPolicy } from './delivery-address-policy';

const production = new DeliveryAddressPolicy({ allowedNetworks: [], allowLoopback: false });
const development = new DeliveryAddressPolicy({ allowedNetworks: [], allowLoopback: true });

describe('DeliveryAddressPolicy', () => {
  describe('refuses internal and special ranges (production)', () => {
    it.each([
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.254', 'private'],
      ['192.168.1.1', 'private'],
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['169.254.169.254', 'linkLocal'],
      ['169.254.0.1', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['100.127.255.254', 'carrierGradeNat'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['255.255.255.255', 'broadcast'],
      ['192.0.2.10', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['240.0.0.1', 'reserved'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'linkLocal'],
      ['febf::1', 'linkLocal'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456::1', 'uniqueLocal'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'reserved'],
      ['fe00::1', 'reserved (outside 2000::/3)'],
      ['4000::1', 'reserved (outside 2000::/3)'],
      ['::ffff:10.0.0.1', 'private (IPv4 10.0.0.1 inside IPv6)'],
      ['::ffff:127.0.0.1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
      ['::ffff:169.254.169.254', 'linkLocal (IPv4 169.254.169.254 inside IPv6)'],
      ['::ffff:0:10.0.0.1', 'private (IPv4 10.0.0.1 inside IPv6)'],
      ['64:ff9b::10.0.0.1', 'private (IPv4 10.0.0.1 inside IPv6)'],
      ['64:ff9b::127.0.0.1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
      ['64:ff9b:1::1', 'rfc6052 (local-use NAT64)'],
      ['2002:a00:1::1', 'private (IPv4 10.0.0.1 inside IPv6)'],
      ['2002:a9fe:a9fe::1', 'linkLocal (IPv4 169.254.169.254 inside IPv6)'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
      ['::10.0.0.1', 'ipv4Compatible'],
      ['::8.8.8.8', 'ipv4Compatible'],
      ['not-an-ip', 'not an IP address'],
    ])('%s → refused (%s)', (address, range) => {
      expect(production.check(address)).toEqual({ allowed: false, range });
    });
  });

  describe('allows public unicast', () => {
    it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'])(
      '%s',
      (address) => {
        expect(production.check(address)).toEqual({ allowed: true });
        expect(development.check(address)).toEqual({ allowed: true });
      },
    );
  });

  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])('allows loopback %s outside production only', (address) => {
    expect(development.check(address)).toEqual({ allowed: true });
    expect(production.check(address).allowed).toBe(false);
  });

  it('does not let development open any other internal range', () => {
    for (const address of ['10.0.0.1', '169.254.169.254', '::ffff:10.0.0.1', 'fd00::1']) expect(development.check(address).allowed).toBe(false);
  });

  it('allows addresses inside WEBHOOK_ALLOWED_NETWORKS, IPv4 ones also in their IPv6 forms, and nothing next to them', () => {
    const policy = new DeliveryAddressPolicy({ allowedNetworks: parseAllowedNetworks('10.20.0.0/16, fd00::/8,127.0.0.1/32'), allowLoopback: false });
    expect(policy.check('10.20.3.4')).toEqual({ allowed: true });
    expect(policy.check('::ffff:10.20.3.4')).toEqual({ allowed: true });
    expect(policy.check('64:ff9b::10.20.3.4')).toEqual({ allowed: true });
    expect(policy.check('fd00::1')).toEqual({ allowed: true });
    expect(policy.check('127.0.0.1')).toEqual({ allowed: true });
    expect(policy.check('10.21.0.1')).toEqual({ allowed: false, range: 'private' });
    expect(policy.check('fd01::1').allowed).toBe(true);
    expect(policy.check('fe00::1')).toEqual({ allowed: false, range: 'reserved (outside 2000::/3)' });
    expect(policy.check('127.0.0.2')).toEqual({ allowed: false, range: 'loopback' });
  });
});

describe('parseAllowedNetworks', () => {
  it('reads a comma list of IPv4 and IPv6 CIDR ranges; empty means none', () => {
    expect(parseAllowedNetworks('')).toEqual([]);
    expect(parseAllowedNetworks(' 10.0.0.0/8 , fd00::/8 ').map(([net, prefix]) => `${net.toString()}/${prefix}`)).toEqual(['10.0.0.0/8', 'fd00::/8']);
  });

  it('fails with every bad entry named under WEBHOOK_ALLOWED_NETWORKS', () => {
    let error: unknown;
    try {
      parseAllowedNetworks('10.0.0.0/8,10.0.0.1,192.168.0.0/33,example.com/24');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const message = (error as Error).message;
    expect(message).toContain('WEBHOOK_ALLOWED_NETWORKS');
    for (const entry of ['"10.0.0.1"', '"192.168.0.0/33"', '"example.com/24"']) expect(message).toContain(entry);
    expect(message).not.toContain('"10.0.0.0/8"');
  });
});
