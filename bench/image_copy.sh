#!/bin/sh
# Image copies vs the same copy on buffers, 2048x2048 texels, through
# `clc run --repeat` (kernel time only; see bench/README.md, "images").
# Usage: bench/image_copy.sh [CLC] [REPEAT]
set -e
clc=${1:-target/release/clc}
reps=${2:-20}
k=$(dirname "$0")/kernels/images/copy.cl
n=2048
run() {
    name=$1; shift
    printf '%-34s ' "$name"
    "$clc" run "$k" --global $n,$n --repeat "$reps" "$@" | sed 's/^compile: [^;]*; //'
}
run "buffer_copy_uchar4" --kernel buffer_copy_uchar4 --arg buf:uchar4:$((n * n)):rand --arg buf:uchar4:$((n * n))
run "image_copy rgba unorm8" --kernel image_copy --arg image2d:rgba:unorm8:${n}x$n:rand --arg image2d:rgba:unorm8:${n}x$n
run "image_copy_sampled rgba unorm8" --kernel image_copy_sampled --arg image2d:rgba:unorm8:${n}x$n:rand --arg sampler:unnormalized:clamp_to_edge:nearest --arg image2d:rgba:unorm8:${n}x$n
run "image_copy_ui rgba uint8" --kernel image_copy_ui --arg image2d:rgba:uint8:${n}x$n:rand --arg image2d:rgba:uint8:${n}x$n
run "buffer_copy_float4" --kernel buffer_copy_float4 --arg buf:float4:$((n * n)):rand --arg buf:float4:$((n * n))
run "image_copy rgba float" --kernel image_copy --arg image2d:rgba:float:${n}x$n:rand --arg image2d:rgba:float:${n}x$n
run "image_copy_sampled rgba float" --kernel image_copy_sampled --arg image2d:rgba:float:${n}x$n:rand --arg sampler:unnormalized:clamp_to_edge:nearest --arg image2d:rgba:float:${n}x$n
