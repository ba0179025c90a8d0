package site

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
)

func TestScratchHeap(t *testing.T) {
	dir := os.Getenv("SYN")
	if dir == "" {
		t.Skip()
	}
	runtime.MemProfileRate = 1
	s, _ := Open(dir, Options{})
	m, _ := s.Remap(nil)
	m, _ = s.Remap([]string{"x"})
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	println("heap", ms.HeapAlloc)
	f, _ := os.Create(os.Getenv("HEAP"))
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
	runtime.KeepAlive(m)
	runtime.KeepAlive(s)
}
