import { startServer } from "../source/index";

export function testStartServer(): boolean {
  return startServer(8080) === "listening on 8080";
}
