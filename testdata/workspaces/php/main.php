<?php

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Shapes\Circle;
use Shapes\Square;

use function Shapes\total_area;

$shapes = [new Circle(1.0), new Square(2.0)];
echo total_area($shapes), PHP_EOL;
