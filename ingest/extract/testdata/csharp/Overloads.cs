namespace Demo
{
    public class Printer
    {
        public void Print(string s)
        {
            Write(s);
        }

        public void Print(string s, int times)
        {
            for (var i = 0; i < times; i++) Print(s);
        }

        public void Print(params object[] items)
        {
            Print(string.Join(",", items), 1);
        }

        private void Write(string s) { }
    }
}
