import { describe, expect, it } from "vitest";
import { isForbiddenAddress } from "../../src/events/webhook-destinations";

describe("isForbiddenAddress", () => {
  it.each([
    ["IPv4 loopback", "127.0.0.1"],
    ["IPv4 private", "10.1.2.3"],
    ["IPv6 loopback", "::1"],
    ["IPv4-mapped IPv6", "::ffff:127.0.0.1"],
    // IPv6 forms that carry a private IPv4 address, once let through.
    ["NAT64 of loopback", "64:ff9b::7f00:1"],
    ["NAT64 of a private address", "64:ff9b::c0a8:101"],
    ["6to4 of loopback", "2002:7f00:1::"],
    ["6to4 of a private address", "2002:a00:1::1"],
    ["IPv4-compatible loopback", "::7f00:1"],
    ["IPv4-compatible private address", "::a9fe:a9fe"],
    ["local-use NAT64", "64:ff9b:1::1"],
  ])("refuses %s (%s)", (_name, address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    ["a public IPv4 address", "93.184.215.14"],
    ["a public IPv6 address", "2606:4700:4700::1111"],
    ["NAT64 of a public address", "64:ff9b::808:808"],
    ["6to4 of a public address", "2002:808:808::1"],
  ])("allows %s (%s)", (_name, address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});
