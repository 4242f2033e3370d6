<?php

declare(strict_types=1);

namespace Shapes;

final class Circle implements Shape
{
    public function __construct(private float $radius)
    {
    }

    public function area(): float
    {
        return M_PI * $this->radius * $this->radius;
    }
}
