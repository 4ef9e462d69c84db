// The device table printed by ember-smi and ember-demo (like nvidia-smi's, for ember's view).
#pragma once

// Prints the table to stdout; ascii uses +-| instead of box-drawing characters.
void print_device_table(bool ascii);
