package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfile writes a CPU profile of the whole process to the file named
// by CAIRN_CPUPROFILE, if it is set, until the returned stop is called;
// stop also writes a heap profile (allocations since the start, and what is
// live) to the file named by CAIRN_MEMPROFILE, if that is set.
func startProfile() (stop func()) {
	stopCPU := func() {}
	if path := os.Getenv("CAIRN_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "warning: CAIRN_CPUPROFILE:", err)
		} else {
			stopCPU = func() {
				pprof.StopCPUProfile()
				f.Close()
			}
		}
	}
	return func() {
		stopCPU()
		if path := os.Getenv("CAIRN_MEMPROFILE"); path != "" {
			if err := writeHeapProfile(path); err != nil {
				fmt.Fprintln(os.Stderr, "warning: CAIRN_MEMPROFILE:", err)
			}
		}
	}
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC() // the profile counts allocations as of the last collection
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
