package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	cases := []struct {
		desc      string
		args      func(dir string) []string
		wantErr   string // "" for success, "usage" for a usageError
		wantFiles []string
	}{
		{"synthetic then build", func(d string) []string { return []string{"-C", d, "-synthetic", "25", "-seed", "2"} }, "", []string{"index.html", "blog/index.html", "sitemap.xml"}},
		{"extra argument", func(d string) []string { return []string{"-C", d, "extra"} }, "usage", nil},
		{"unknown flag", func(d string) []string { return []string{"-nope"} }, "usage", nil},
		{"no site", func(d string) []string { return []string{"-C", d} }, "hugo.toml", nil},
		{"help", func(d string) []string { return []string{"-h"} }, "help", nil},
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tc.args(dir), &stdout, &stderr)
			switch tc.wantErr {
			case "":
				if err != nil {
					t.Fatalf("run: got %v, want success", err)
				}
				if !strings.Contains(stdout.String(), "built") {
					t.Errorf("stdout = %q, want a summary", stdout.String())
				}
			case "usage":
				if !errors.As(err, new(usageError)) {
					t.Errorf("got %v, want a usage error", err)
				}
			case "help":
				if !errors.Is(err, flag.ErrHelp) {
					t.Errorf("got %v, want flag.ErrHelp", err)
				}
			default:
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || errors.As(err, new(usageError)) {
					t.Errorf("got %v, want a build error naming %q", err, tc.wantErr)
				}
			}
			for _, f := range tc.wantFiles {
				if _, err := os.Stat(filepath.Join(dir, "public", f)); err != nil {
					t.Errorf("missing output %s: %v", f, err)
				}
			}
		})
	}
}
