package site

import "errors"

// hugoConfig is what Hugo's configuration says about paths.
type hugoConfig struct{}

// Placeholder until the Hugo mapping lands (being written now); replaced, not shipped.
func (s *Site) openHugo() error {
	s.Content = s.abs("content")
	s.Output = s.abs("public")
	s.hugo = &hugoConfig{}
	return nil
}

func (s *Site) hugoPages() ([]Page, error) { return nil, errors.New("hugo mapping: not written yet") }

func (s *Site) hugoPagerParent(url string) (string, bool) { return "", false }
