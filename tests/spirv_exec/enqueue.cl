// Device-side enqueue on SPIR-V (spirv_val's device_side_enqueue_is_instructions; run.py's
// check_enqueue runs it on Intel's CPU runtime with a device queue as q and n = 5).
int (^square)(int) = ^(int x) { return x * x; };
kernel void enqueue_all(global int *out, queue_t q, int n) {
  if (get_global_id(0) != 0) return;
  clk_event_t evs[3];
  evs[0] = create_user_event();
  evs[1] = create_user_event();
  clk_event_t pick;
  if (n & 1) pick = evs[0]; else pick = evs[1];
  retain_event(pick);
  out[1] = is_valid_event(pick);
  release_event(pick);
  clk_event_t done;
  size_t g[2] = {4, 2};
  ndrange_t nd2 = ndrange_2D(g);
  int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, nd2, 2, evs, &done,
      ^(local void *a, local void *b) { ((local int *)a)[0] = n; ((local int *)b)[0] = n; out[2 + get_global_id(1) * 4 + get_global_id(0)] = n; },
      (uint)16, (uint)32);
  r |= enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2), ^{ out[12 + get_global_id(0)] = 7; });
  });
  clk_event_t m;
  r |= enqueue_marker(q, 1, &done, &m);
  capture_event_profiling_info(m, CLK_PROFILING_COMMAND_EXEC_TIME, (global void *)(out + 16));
  set_user_event_status(evs[0], CL_COMPLETE);
  set_user_event_status(evs[1], CL_COMPLETE);
  release_event(evs[0]); release_event(evs[1]); release_event(done); release_event(m);
  void (^blk)(void) = ^{ out[20] = 1; };
  // A program-scope block, a literal called where it is written, a block
  // variable naming another, enqueued.
  out[24] = square(n);
  out[25] = ^(int x) { return x + 1; }(n);
  void (^w)(void) = ^{ out[26 + get_global_id(0)] = square(n) + (int)get_global_id(0); };
  void (^w2)(void) = w;
  r |= enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2), w2);
  out[0] = r;
  out[21] = get_kernel_work_group_size(blk) > 0;
  out[22] = get_kernel_preferred_work_group_size_multiple(blk) > 0;
}
