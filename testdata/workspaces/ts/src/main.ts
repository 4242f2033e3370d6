import { parse as parseShape } from "./geom/parse";
import { Rect } from "./rect";
import { report } from "./report";
import { describe as summarize, totalArea, type Shape } from "./shape";
import { parse as parseLength } from "./units/parse";

const side = parseLength("30cm");
const circle = parseShape("circle 2");
const all: Shape[] = [circle, new Rect(side, side)];

export const headline = summarize(circle);
export const banner = "🚀🚀 total: " + totalArea(all).toFixed(2);
export const summary = report(all);
