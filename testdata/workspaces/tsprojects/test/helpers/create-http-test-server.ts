// A helper outside every tsconfig.json project: tsserver searches it only
// when it is open (no file opened before it imports it).
import { startServer } from "../../source/index";

/** Starts a server on a port for a test. */
export function createHttpTestServer(port: number): string {
  return startServer(port);
}
