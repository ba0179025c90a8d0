package site

import "errors"

// jekyllConfig is what Jekyll's _config.yml says about paths.
type jekyllConfig struct{}

// Placeholder until the Jekyll mapping lands (being written now); replaced, not shipped.
func (s *Site) openJekyll() error {
	s.Content = s.Root
	s.Output = s.abs("_site")
	s.jek = &jekyllConfig{}
	return nil
}

func (s *Site) jekyllPages() ([]Page, error) {
	return nil, errors.New("jekyll mapping: not written yet")
}

func (s *Site) jekyllPagerParent(url string) (string, bool) { return "", false }
