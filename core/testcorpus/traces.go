package testcorpus

// Stack traces of five dialects, as an agent pastes them: prose around a
// Python traceback, a Go panic with a closure and "created by", a Java
// exception with a lambda and a module prefix, a Node trace with async, a
// file URL and a runtime frame, and a C# frame. core/seek's query tests
// and core/stacktrace's dialect tests read the same text.
const (
	PythonTrace = `Login fails for users with a unicode password.

Traceback (most recent call last):
  File "/srv/app/web/views.py", line 88, in post
    user = auth.login(form.user, form.password)
  File "/srv/app/backend/auth.py", line 18, in login
    if not self.validate_credentials(user, password):
  File "/srv/app/backend/auth.py", line 14, in validate_credentials
    digest = hash_password(password)
UnicodeEncodeError: 'ascii' codec can't encode character
`

	GoTrace = `panic: runtime error: index out of range [7] with length 7

goroutine 1 [running]:
example.com/app/web.parseHeaderToken(0xc000010000)
	/home/ci/app/web/server.go:18 +0x1d
example.com/app/web.(*Server).ServeHTTP.func1(...)
	/home/ci/app/web/router.go:8 +0x2a
created by example.com/app/web.Start in goroutine 1
	/home/ci/app/web/start.go:12 +0x44
`

	JavaTrace = `java.lang.NullPointerException: token
	at com.acme.auth.SessionStore.lookup(SessionStore.java:42)
	at com.acme.auth.AuthService$Inner.lambda$login$0(AuthService.java:17)
	at java.base/java.lang.Thread.run(Thread.java:833)
`

	JSTrace = `TypeError: Cannot read properties of undefined (reading 'id')
    at SessionStore.create (/srv/app/src/session.js:11:20)
    at async Server.handleLogin (file:///srv/app/src/server.ts:40:5)
    at /srv/app/src/index.js:3:1
    at node:internal/process/task_queues:95:5
`

	CSharpTrace = `System.InvalidOperationException: bad state
   at Acme.Auth.Validate(String user) in C:\src\Acme\Auth.cs:line 42
`
)
