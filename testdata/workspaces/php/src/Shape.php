<?php

declare(strict_types=1);

namespace Shapes;

/**
 * A closed plane figure.
 */
interface Shape
{
    /**
     * Returns the area enclosed by the shape.
     */
    public function area(): float;
}
