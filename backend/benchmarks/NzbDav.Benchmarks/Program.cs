using BenchmarkDotNet.Running;

// The default toolchain: BenchmarkDotNet 0.15 builds and runs each benchmark in its own net10 process.
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
