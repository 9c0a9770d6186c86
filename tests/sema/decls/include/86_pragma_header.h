// Included by 86_pragma_diagnostics.cl: a push here is popped by the includer, and an
// option set here stays set after the header ends (clang's rule).
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-comparison"
static void header_compare(int x) { x == 1; }
