export default 1
