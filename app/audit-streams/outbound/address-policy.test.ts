import { describe, expect, it } from "vitest";
import { ipLiteral, refusedRange } from "~/audit-streams/outbound/address-policy";

describe("refusedRange", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.1.2", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.1.1", "linkLocal"],
    ["169.254.169.254", "a cloud metadata address"],
    ["100.100.100.200", "a cloud metadata address"],
    ["168.63.129.16", "a cloud metadata address"],
    ["fd00:ec2::254", "a cloud metadata address"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["192.0.2.10", "reserved"],
    ["198.51.100.7", "reserved"],
    ["203.0.113.9", "reserved"],
    ["198.18.0.1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["2001::1", "teredo"],
    ["64:ff9b:1::a00:1", "rfc6052"],
    ["::7f00:1", "ipv4Compatible"],
    ["::8.8.8.8", "ipv4Compatible"],
  ])("refuses %s (%s)", (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "a cloud metadata address"],
    ["::ffff:0:10.0.0.1", "private"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "a cloud metadata address"],
    ["2002:7f00:1::1", "loopback"],
    ["2002:c0a8:101::", "private"],
  ])("refuses %s, an IPv6 form of an IPv4 address that is %s", (address, range) => {
    expect(refusedRange(address)).toBe(`${range} (inside an IPv6 address)`);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82b::200e",
    "::ffff:8.8.8.8",
    "2002:808:808::1",
    "64:ff9b::808:808",
  ])("allows the public address %s", (address) => {
    expect(refusedRange(address)).toBeNull();
  });

  it("refuses what is not an address", () => {
    expect(refusedRange("example.com")).toBe("not an IP address");
    expect(refusedRange("")).toBe("not an IP address");
  });
});

describe("ipLiteral", () => {
  it("reads the hosts Node connects to without a lookup, and only those", () => {
    expect(ipLiteral("127.0.0.1")).toBe("127.0.0.1");
    expect(ipLiteral("[::1]")).toBe("::1");
    expect(ipLiteral(new URL("https://[::ffff:127.0.0.1]/").hostname)).toBe("::ffff:7f00:1");
    // The URL parser turns the shorthand and hexadecimal forms into dotted quads before we see them.
    expect(ipLiteral(new URL("https://0x7f.1/").hostname)).toBe("127.0.0.1");
    expect(ipLiteral(new URL("https://2130706433/").hostname)).toBe("127.0.0.1");
    expect(ipLiteral("localhost")).toBeNull();
    expect(ipLiteral("receiver.example.com")).toBeNull();
  });
});
