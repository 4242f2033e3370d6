<?php

declare(strict_types=1);

// The fixture's one deliberate problem: a function nobody defined.
echo perimeter_of(3.0), PHP_EOL;
