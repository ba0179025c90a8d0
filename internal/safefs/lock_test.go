//go:build unix

package safefs

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLock: a second run waits while the first holds the folder, and goes on
// once it ends; a run that stops waiting (Ctrl-C) returns its context's error.
func TestLock(t *testing.T) {
	dir := tree(t, oldSite)
	tx := begin(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := Begin(ctx, dir); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Begin while locked: got %v, want context.DeadlineExceeded", err)
	}
	if _, err := Recover(ctx, dir); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Recover while locked: got %v, want context.DeadlineExceeded", err)
	}
	got := make(chan error, 1)
	go func() {
		tx2, err := Begin(context.Background(), dir)
		if err == nil {
			err = tx2.Commit(context.Background())
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("second Begin did not wait: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	stage(t, tx, dir, changes)
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}
