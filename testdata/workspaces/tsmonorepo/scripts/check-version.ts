import { isRelease, version } from "../packages/lib/src/version";

if (!isRelease(version)) {
  throw new Error("bad version " + version);
}
