#include <string>

class Printer {
public:
    void print(const std::string& s);
    void print(const std::string& s, int times);
};

void Printer::print(const std::string& s) {
    write(s);
}

void Printer::print(const std::string& s, int times) {
    for (int i = 0; i < times; i++) print(s);
}

int area(int w) { return w * w; }
int area(int w, int h) { return w * h; }

int main() {
    return area(2) + area(2, 3);
}
