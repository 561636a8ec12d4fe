// A program that includes <iostream>: what layering/no_iostream_init_refuses must catch.
#include <iostream>

int main() { return 0; }
