// @ts-check
import { Badge } from "./Badge.jsx";

export function Legend() {
  return <Badge shape="circle" />;
}
