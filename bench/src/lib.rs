//! Support code for the clc benchmarks: the generator of large OpenCL C inputs.
pub mod generator;
