// The address check where it cannot be got around: on the connection itself. A check before the
// request (resolve the name, look at the answer, then connect) is open to DNS rebinding: the name
// answers a public address to the check and 127.0.0.1 to the connect a moment later. Here Node's
// own connect calls our `lookup`, so the address checked is the address connected to. Every
// address a name resolves to is checked and one refused one refuses the connection: Node may try
// them all (happy eyeballs), and a name that mixes a public and a private address is an attack.
// IP literals never reach a lookup (net.connect skips it for them), so agents check them first.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Duplex } from "node:stream";
import { ipLiteral, refusedRange } from "~/audit-streams/outbound/address-policy";

/** A connection refused by the address policy. `code` is what the failure's detail shows. */
export class AddressRefusedError extends Error {
  readonly code = "ADDRESS_REFUSED";
  constructor(
    readonly address: string,
    readonly range: string,
  ) {
    super(`${address} is ${range}`);
    this.name = "AddressRefusedError";
  }
}

/** Null when the address may be connected to, else the error that refuses it. */
export function checkAddress(address: string, allowPrivateNetworks: boolean): AddressRefusedError | null {
  if (allowPrivateNetworks) return null;
  const range = refusedRange(address);
  return range === null ? null : new AddressRefusedError(address, range);
}

/** net.connect's `lookup` that resolves every address of the name and refuses them all if one is refused. */
export function guardedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    // Read through the module object (not a named import) so a test can stand in a resolver.
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const refused = addresses.map((a) => checkAddress(a.address, allowPrivateNetworks)).find((e) => e !== null);
      if (refused) return callback(refused, "", 0);
      if (addresses.length === 0) return callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }), "", 0);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

type ConnectionCallback = (error: Error | null, socket: Duplex) => void;

/**
 * Opens the agent's connection with the guarded lookup, or refuses an IP literal before anything
 * is opened (names go on to the lookup). A refusal goes to the agent's callback, which ends the
 * request with an `error` event like any failed connect.
 */
function guardedConnect(
  options: http.ClientRequestArgs & { lookup?: LookupFunction },
  allowPrivateNetworks: boolean,
  callback: ConnectionCallback | undefined,
  connect: (options: http.ClientRequestArgs, callback?: ConnectionCallback) => Duplex | null | undefined,
): Duplex | null | undefined {
  const literal = options.host ? ipLiteral(options.host) : null;
  const refused = literal ? checkAddress(literal, allowPrivateNetworks) : null;
  if (refused) {
    if (!callback) throw refused;
    callback(refused, undefined as never);
    return undefined;
  }
  return connect({ ...options, lookup: guardedLookup(allowPrivateNetworks) }, callback);
}

/**
 * Agents whose every connection passes the address check: given to node:http(s) requests and to
 * the S3 SDK's HTTP handler. No keep-alive: a batch is a request, and a fresh connection per
 * request never reuses a socket a receiver has half-closed.
 */
export function guardedAgents(allowPrivateNetworks: boolean): { http: http.Agent; https: https.Agent } {
  class GuardedHttpAgent extends http.Agent {
    override createConnection(options: http.ClientRequestArgs, callback?: ConnectionCallback): Duplex | null | undefined {
      return guardedConnect(options, allowPrivateNetworks, callback, (o, c) => super.createConnection(o, c));
    }
  }
  class GuardedHttpsAgent extends https.Agent {
    override createConnection(options: http.ClientRequestArgs, callback?: ConnectionCallback): Duplex | null | undefined {
      return guardedConnect(options, allowPrivateNetworks, callback, (o, c) => super.createConnection(o, c));
    }
  }
  return { http: new GuardedHttpAgent({ keepAlive: false }), https: new GuardedHttpsAgent({ keepAlive: false }) };
}
