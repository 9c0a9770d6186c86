#pragma GCC system_header
// Nothing is reported from a system header, but errors.
static void system_unused(void) { int unused_in_system_header; }
