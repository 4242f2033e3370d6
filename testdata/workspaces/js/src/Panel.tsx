import { Shape } from "./shape.js";
import { Badge } from "./Badge.jsx";

interface PanelProps {
  /** The shapes to list. */
  shapes: Shape[];
  title:string;
}

/** A titled panel of shape badges. */
export function Panel({ shapes, title }: PanelProps) {
  return (
    <section>
      <h2>{title}</h2>
      {shapes.map((shape) => <Badge shape={shape} />)}
    </section>
  );
}
