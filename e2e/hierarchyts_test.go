package e2e

import (
	"strings"
	"testing"
)

// reactLikeTree is a TSX workspace with the shapes of a tester's React
// app (findings s28 F5, F6): a hook destructured from a call's result, a
// component made by a call (as React.forwardRef makes one), a handler
// passed as onClick={…}, and `[…multi-line…].filter(Boolean)`.
var reactLikeTree = map[string]string{
	"package.json":  `{"name":"hier","private":true}` + "\n",
	"tsconfig.json": `{"compilerOptions": {"target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "noEmit": true, "jsx": "preserve"}, "include": ["src"]}` + "\n",
	"src/lib/authlib.ts": `export function configureAuth<U>(load: () => U) {
  return { useUser: () => load(), useLogout: () => undefined as void };
}
`,
	"src/auth.ts": `import { configureAuth } from './lib/authlib';

export type User = { name: string };

export const { useUser, useLogout } = configureAuth((): User => ({ name: 'a' }));
`,
	"src/button.tsx": `export function cn(...parts: string[]) {
  return parts.join(' ');
}

function forwardRef<P>(render: (props: P, ref: unknown) => unknown) {
  return (props: P) => render(props, null);
}

export const Button = forwardRef((props: { onClick?: () => void; label: string }, ref) => {
  return <button className={cn('btn', props.label)} onClick={props.onClick}>{props.label}</button>;
});
`,
	"src/landing.tsx": `import { useUser } from './auth';
import { Button } from './button';

export const LandingRoute = () => {
  const user = useUser();

  const handleStart = () => {
    console.log(user.name);
  };

  return (
    <div>
      <Button onClick={handleStart} label="start" />
      {[1, 2].map(String)}
      <Button label="again" />
    </div>
  );
};

export function pick2(ok: boolean) {
  const items = [
    { name: 'a' },
    ok && { name: 'b' },
  ].filter(Boolean);
  return items;
}
`,
	"src/profile.tsx": `import { useUser } from './auth';

export function Profile() {
  const user = useUser();
  return <p>{user.name}</p>;
}
`,
}

// TestTypeScriptHierarchyGaps: what typescript-language-server's call
// hierarchy does not see is said, not left out.
//   - F5a: the site of `[\n…\n].filter(Boolean)` spans lines from the `[`;
//     the callee was dropped as "call sites … are not there".
//   - F5b: callees of a component left out `useUser()` and `<Button>`
//     (values with no call hierarchy item) with no Incomplete line.
//   - F6a: callers of a handler passed as onClick={handleStart} were
//     "(no callers found)" and nothing more.
//   - F6b: callers of a destructured hook were "the cursor may not be on
//     a function … or the server has not indexed the file", both wrong;
//     they are the symbols holding the calls its references list.
//   - F12: a caller inside `forwardRef((props, ref) => …)` was named
//     "button.tsx (module)"; code_navigate names it from the outline.
func TestTypeScriptHierarchyGaps(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := t.TempDir()
	writeTree(t, dir, reactLikeTree)
	srv := catalogServe(t)
	defer srv.shutdown(t)
	for _, c := range []struct {
		name, path, symbol, kind string
		want                     []string
		wrong                    []string
		line                     int // a target at a line (matchText symbol) instead of the symbol
	}{
		{"F5a multi-line filter", "src/landing.tsx", "pick2", "callees",
			[]string{"→ filter (method)", "call at src/landing.tsx:21:17"}, []string{"not there", "no callees found"}, 0},
		{"F5b calls with no item", "src/landing.tsx", "LandingRoute", "callees",
			[]string{"→ map (method)", "Incomplete: not listed: calls the server gives no call hierarchy item for", "useUser (line 5), Button (lines 13, 15)"}, []string{"String ("}, 0},
		{"F6a a handler passed as a value", "src/landing.tsx", "handleStart", "callers",
			[]string{"(no callers found)", "`handleStart` is also used 1 time as a value, not called there (src/landing.tsx:13:24)", "code_navigate kind references"}, nil, 0},
		{"F6b a destructured hook", "src/auth.ts", "useUser", "callers",
			[]string{"← LandingRoute (constant) src/landing.tsx:4:14 — call at src/landing.tsx:5:16", "← Profile (function) src/profile.tsx:3:17 — call at src/profile.tsx:4:16",
				"Incomplete: the server gives no call hierarchy item for `useUser`", "the symbols holding the 2 calls its references list", "code_navigate kind references"},
			[]string{"the cursor may not be on a function", "not indexed", "as a value"}, 0},
		{"F12 a caller inside a forwardRef callback", "src/button.tsx", "cn", "callers",
			[]string{"← Button.forwardRef() callback (function) src/button.tsx:9:34 — call at src/button.tsx:10:29"}, []string{"(module)"}, 0},
		{"F6b a destructured hook, asked at a call", "src/landing.tsx", "useUser", "callers",
			[]string{"← LandingRoute (constant) src/landing.tsx:4:14 — call at src/landing.tsx:5:16", "← Profile (function) src/profile.tsx:3:17 — call at src/profile.tsx:4:16"},
			[]string{"the cursor may not be on a function", "as a value"}, 5},
		{"F6b callees of a destructured hook: the reason", "src/auth.ts", "useUser", "callees",
			[]string{"The server gives no call hierarchy item for `useUser`", "used 2 times, every time a call: src/landing.tsx:5:16, src/profile.tsx:4:16", "its callees cannot be listed"},
			[]string{"the cursor may not be on a function", "other use"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			target := map[string]any{"path": c.path, "symbol": c.symbol}
			if c.line > 0 {
				target = map[string]any{"path": c.path, "line": c.line, "matchText": c.symbol}
			}
			a := srv.toolCall(t, "code_hierarchy", jsonArgs(map[string]any{"target": target, "kind": c.kind}), dir)
			text := a.Content[0].Text
			t.Logf("%s of %s:\n%s", c.kind, c.symbol, text)
			if a.IsError {
				t.Fatalf("refused:\n%s", text)
			}
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("the answer lacks %q", w)
				}
			}
			for _, w := range c.wrong {
				if strings.Contains(text, w) {
					t.Errorf("the answer says %q", w)
				}
			}
		})
	}
}
