package gitstore

import "fmt"

// RemoteURL is the first URL configured for remote.
func (l *Repo) RemoteURL(remote string) (string, error) {
	r, err := l.repo.Remote(remote)
	if err != nil {
		return "", fmt.Errorf("remote %s: %w", remote, err)
	}
	if urls := r.Config().URLs; len(urls) > 0 {
		return urls[0], nil
	}
	return "", fmt.Errorf("remote %s has no URL", remote)
}
