<?php

declare(strict_types=1);

namespace Shapes;

final class Square implements Shape
{
    public function __construct(private float $side)
    {
    }

    public function area(): float
    {
        return $this->side * $this->side;
    }
}
