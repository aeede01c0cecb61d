package pagecheck

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// cdp is a client of the Chrome DevTools Protocol over the pipe that
// Chromium opens with --remote-debugging-pipe: it reads commands on its
// file descriptor 3 and writes replies and events on 4, each message one
// JSON object ended by a NUL byte. No websocket and no library are needed.
type cdp struct {
	w    io.WriteCloser
	msgs chan cdpMessage // from the reader goroutine; closed at EOF
	rerr error           // why the reader stopped, set before msgs closes

	mu      sync.Mutex
	next    int
	backlog []cdpMessage // events read while waiting for a reply
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func newCDP(w io.WriteCloser, r io.Reader) *cdp {
	c := &cdp{w: w, msgs: make(chan cdpMessage, 64)}
	go func() {
		br := bufio.NewReaderSize(r, 1<<20)
		for {
			b, err := br.ReadBytes(0)
			if err != nil {
				if !errors.Is(err, io.EOF) {
					c.rerr = err
				}
				close(c.msgs)
				return
			}
			var m cdpMessage
			if err := json.Unmarshal(b[:len(b)-1], &m); err != nil {
				c.rerr = fmt.Errorf("pagecheck: DevTools message: %w", err)
				close(c.msgs)
				return
			}
			c.msgs <- m
		}
	}()
	return c
}

// call sends method with params to the session (the browser when session
// is "") and decodes the reply's result into result when it is not nil.
func (c *cdp) call(ctx context.Context, session, method string, params, result any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	id := c.next
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := c.w.Write(append(b, 0)); err != nil {
		return fmt.Errorf("pagecheck: %s: %w", method, err)
	}
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("pagecheck: %s: %w", method, ctx.Err())
		case m, ok := <-c.msgs:
			if !ok {
				if c.rerr != nil {
					return fmt.Errorf("pagecheck: %s: %w", method, c.rerr)
				}
				return fmt.Errorf("pagecheck: %s: Chromium closed the DevTools pipe", method)
			}
			if m.ID != id {
				if m.Method != "" {
					c.backlog = append(c.backlog, m)
				}
				continue
			}
			if m.Error != nil {
				return fmt.Errorf("pagecheck: %s: %s (code %d)", method, m.Error.Message, m.Error.Code)
			}
			if result != nil {
				if err := json.Unmarshal(m.Result, result); err != nil {
					return fmt.Errorf("pagecheck: %s: %w", method, err)
				}
			}
			return nil
		}
	}
}

// Chromium's flags: headless, and nothing that reaches the network or
// needs a sandbox the CI container cannot give (/work/.library/env notes:
// without the background-networking flags its connections are refused
// here, many at a time).
var chromiumFlags = []string{
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-extensions",
	"--hide-scrollbars",
	"--remote-debugging-pipe",
}

// Browser is a headless Chromium driven over its DevTools pipe, with one
// page whose viewport is Width CSS pixels wide.
type Browser struct {
	cmd     *exec.Cmd
	c       *cdp
	session string
	profile string // the throw-away --user-data-dir
	stderr  *tailBuffer
	Width   int
}

// Start starts the Chromium at path with a new, empty profile, opens one
// page and sets its viewport to width × 800 CSS pixels at scale 1.
func Start(ctx context.Context, path string, width int) (*Browser, error) {
	profile, err := os.MkdirTemp("", "pagecheck-profile-")
	if err != nil {
		return nil, err
	}
	toChrome, ourEnd, err := os.Pipe() // Chromium reads fd 3
	if err != nil {
		return nil, err
	}
	ourRead, fromChrome, err := os.Pipe() // Chromium writes fd 4
	if err != nil {
		return nil, err
	}
	args := append(append([]string(nil), chromiumFlags...), "--user-data-dir="+profile, fmt.Sprintf("--window-size=%d,800", width), "about:blank")
	cmd := exec.Command(path, args...)
	cmd.ExtraFiles = []*os.File{toChrome, fromChrome}
	b := &Browser{cmd: cmd, profile: profile, stderr: &tailBuffer{}, Width: width}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		os.RemoveAll(profile)
		return nil, fmt.Errorf("pagecheck: starting %s: %w", path, err)
	}
	toChrome.Close()
	fromChrome.Close()
	b.c = newCDP(ourEnd, ourRead)

	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.c.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		b.Close()
		return nil, b.withStderr(err)
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.c.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		b.Close()
		return nil, b.withStderr(err)
	}
	b.session = att.SessionID
	for _, step := range []struct {
		method string
		params any
	}{
		{"Page.enable", nil},
		{"Runtime.enable", nil},
		{"Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": false}},
	} {
		if err := b.c.call(ctx, b.session, step.method, step.params, nil); err != nil {
			b.Close()
			return nil, b.withStderr(err)
		}
	}
	return b, nil
}

// SetWidth sets the page's viewport to width × 800 CSS pixels, for the
// checks that follow (the pages are checked at a desktop's 1280 and a
// phone's 390).
func (b *Browser) SetWidth(ctx context.Context, width int) error {
	params := map[string]any{"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": false}
	if err := b.c.call(ctx, b.session, "Emulation.setDeviceMetricsOverride", params, nil); err != nil {
		return b.withStderr(err)
	}
	b.Width = width
	return nil
}

func (b *Browser) withStderr(err error) error {
	if s := b.stderr.String(); s != "" {
		return fmt.Errorf("%w; Chromium's stderr ends: %s", err, s)
	}
	return err
}

// Close ends Chromium (Browser.close, then a kill if it has not gone within
// five seconds) and removes its profile.
func (b *Browser) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- b.cmd.Wait() }()
	_ = b.c.call(ctx, "", "Browser.close", nil, nil)
	select {
	case <-done:
	case <-ctx.Done():
		_ = b.cmd.Process.Kill()
		<-done
	}
	b.c.w.Close()
	return os.RemoveAll(b.profile)
}

// tailBuffer keeps the last 4 KiB written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
