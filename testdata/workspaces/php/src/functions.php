<?php

declare(strict_types=1);

namespace Shapes;

/**
 * Returns the sum of the areas of all shapes.
 *
 * @param Shape[] $shapes
 */
function total_area(array $shapes): float
{
    $sum = 0.0;
    foreach ($shapes as $shape) {
        $sum += $shape->area();
    }
    return $sum;
}
