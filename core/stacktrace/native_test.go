package stacktrace

var nativeCases = []parseCase{
	{
		name: "AddressSanitizer report from a fuzzer, the allocation stack after the crash",
		text: "==1234==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011 at pc 0x4f1a2b\n" +
			"READ of size 1 at 0x602000000011 thread T0\n" +
			"    #0 0x4f1a2b in parse_string /src/cjson/cJSON.c:850:13\n" +
			"    #1 0x4f2c3d in parse_value /src/cjson/cJSON.c:1396:16\n" +
			"    #2 0x4f5a6b in LLVMFuzzerTestOneInput /src/cjson/fuzzing/cjson_read_fuzzer.c:38:12\n" +
			"    #3 0x7f0000 in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x2409b)\n" +
			"\n0x602000000011 is located 0 bytes to the right of 1-byte region\nallocated by thread T0 here:\n" +
			"    #0 0x49a0 in malloc /src/llvm-project/compiler-rt/lib/asan/asan_malloc_linux.cpp:69:3\n" +
			"    #1 0x4f9 in cJSON_strdup /src/cjson/cJSON.c:200:5\n",
		want: C,
		err:  Error{Type: "AddressSanitizer: heap-buffer-overflow", Message: "on address 0x602000000011 at pc 0x4f1a2b"},
		frames: []string{
			"/src/cjson/cJSON.c:850 parse_string",
			"/src/cjson/cJSON.c:1396 parse_value",
			"/src/cjson/fuzzing/cjson_read_fuzzer.c:38 LLVMFuzzerTestOneInput",
			":0 __libc_start_main [ext]",
			"/src/llvm-project/compiler-rt/lib/asan/asan_malloc_linux.cpp:69 malloc [ext]",
			"/src/cjson/cJSON.c:200 cJSON_strdup",
		},
	},
	{
		name: "gdb backtrace of a C++ program",
		text: "Program received signal SIGSEGV, Segmentation fault.\n" +
			"#0  0x0000555555555189 in acme::Parser::next (this=0x0) at src/parser.cpp:42\n" +
			"#1  0x00005555555551c4 in acme::run<int> (p=...) at src/run.hpp:7\n" +
			"#2  main () at src/main.cpp:12\n" +
			"#3  0x00007ffff7a05b97 in __libc_start_main () from /lib/x86_64-linux-gnu/libc.so.6\n",
		want: Cpp,
		frames: []string{
			"src/parser.cpp:42 Parser.next",
			"src/run.hpp:7 acme.run",
			"src/main.cpp:12 main",
			":0 __libc_start_main [ext]",
		},
	},
	{
		name: "lldb bt",
		text: "* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x0)\n" +
			"  * frame #0: 0x0000000100003f40 a.out`parse_string(item=0x0000000000000000) at cJSON.c:850:13\n" +
			"    frame #1: 0x0000000100003f90 a.out`main at main.c:9:5\n" +
			"    frame #2: 0x00007ff80a1b0366 dyld`start + 1942\n",
		want: C,
		frames: []string{
			"cJSON.c:850 parse_string",
			"main.c:9 main",
			":0 start [ext]",
		},
	},
	{
		name: "valgrind invalid read",
		text: "==4321== Invalid read of size 1\n" +
			"==4321==    at 0x109A4B: parse_string (cJSON.c:850)\n" +
			"==4321==    by 0x109C3D: parse_value (cJSON.c:1396)\n" +
			"==4321==    by 0x48A1D8F: (below main) (in /usr/lib/x86_64-linux-gnu/libc.so.6)\n",
		want: C,
		err:  Error{Type: "valgrind", Message: "Invalid read of size 1"},
		frames: []string{
			"cJSON.c:850 parse_string",
			"cJSON.c:1396 parse_value",
			":0 (below main) [ext]",
		},
	},
	{
		name:   "UBSan runtime error",
		text:   "cJSON.c:307:18: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'",
		want:   C,
		err:    Error{Type: "runtime error", Message: "signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'"},
		frames: []string{"cJSON.c:307"},
	},
}
