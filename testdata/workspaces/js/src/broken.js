// @ts-check
import { describe } from "./shape.js";

console.log(describe(42));
