package site

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"testing"
	"time"
)

func TestScratchJekyll(t *testing.T) {
	dir := os.Getenv("JSYN")
	if dir == "" {
		t.Skip()
	}
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	m, err := s.Map()
	fmt.Println("map", time.Since(t0), len(m.Pages), err)
	s.Remap(nil)
	f, _ := os.Create(os.Getenv("PROF"))
	pprof.StartCPUProfile(f)
	var ds []time.Duration
	for k := 0; k < 20; k++ {
		src := filepath.Join(dir, fmt.Sprintf("section-%d/page-%d.md", k, k))
		fh, _ := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0)
		fmt.Fprintf(fh, "\nedit %d\n", k)
		fh.Close()
		t0 := time.Now()
		s.Remap([]string{src})
		ds = append(ds, time.Since(t0))
	}
	pprof.StopCPUProfile()
	f.Close()
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	fmt.Println("remap median", ds[len(ds)/2], "max", ds[len(ds)-1])
}
