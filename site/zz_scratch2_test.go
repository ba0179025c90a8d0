package site

import (
	"os"
	"runtime/pprof"
	"testing"
)

func TestScratchProfile(t *testing.T) {
	dir := os.Getenv("SYN")
	if dir == "" {
		t.Skip()
	}
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Remap(nil)
	f, _ := os.Create(os.Getenv("PROF"))
	pprof.StartCPUProfile(f)
	for k := 0; k < 40; k++ {
		s.Remap([]string{"x"})
	}
	pprof.StopCPUProfile()
	f.Close()
}
