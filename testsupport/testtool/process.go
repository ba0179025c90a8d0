package testtool

import (
	"net"
	"strings"
	"sync"
	"testing"
)

// FreePort returns a TCP port on 127.0.0.1 that nothing listens on now, for a server a test starts.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Output collects what a child process prints (os/exec copies its stdout and stderr from goroutines
// of its own), for failure messages and for waiting on a line.
type Output struct {
	mu sync.Mutex
	b  strings.Builder
}

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

// String is everything written so far.
func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}
