from api.trends import top
import helpers
